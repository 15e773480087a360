import { resourceDescription } from '../../../shared/form/n8n-operation';
import * as get from './get.operation';

export const operations = { get };

export const description = resourceDescription('stats', operations, 'get');
