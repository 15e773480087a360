import { resourceDescription } from '../../../shared/form/n8n-operation';
import * as create from './create.operation';
import * as deleteLink from './delete.operation';
import * as find from './find.operation';
import * as findOrCreate from './findOrCreate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

/** The link operations by their n8n value: the router and the Operation dropdown both read this. */
export const operations = { create, delete: deleteLink, find, findOrCreate, get, getAll, update };

export const description = resourceDescription('link', operations, 'create');
