import { resourceDescription } from '../../../shared/form/n8n-operation';
import * as campaign from './campaign.operation';

export const operations = { campaign };

export const description = resourceDescription('report', operations, 'campaign');
