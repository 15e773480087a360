import { resourceDescription } from '../../../shared/form/n8n-operation';
import * as getAll from './getAll.operation';

export const operations = { getAll };

export const description = resourceDescription('domain', operations, 'getAll');
