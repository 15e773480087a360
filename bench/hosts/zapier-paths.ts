import { join } from 'node:path';

/** The BUILT Zapier app: packages/zapier/index.js → dist/app.js, what is zipped and uploaded. */
export const ZAPIER_APP = join(__dirname, '..', '..', 'packages', 'zapier', 'index.js');
