import { operationByKey } from '../../../core';
import { n8nOperation } from '../../../shared/form/n8n-operation';

/** Make QR Code: the item's json is the link, its binary "data" the image (PNG or SVG), named after the slug. */
export const { option, description, execute } = n8nOperation(operationByKey('link.qrCode'), {
	action: 'Make a QR code of a link',
	summary: 'Print-ready PNG or SVG of the short URL, as binary data for the next node (Drive, Email)',
});
