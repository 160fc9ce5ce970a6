import { DomainError } from '@app/common';
import { decodeTlvTree, Iso8583Error, TlvNode } from '@app/iso8583';
import { tagLabel } from './emv-data-elements';

/**
 * The templates a card read may wrap its data objects in: 70 (READ RECORD response) and 77
 * (response message template format 2) of EMV Book 3, as a card answers. Templates hold data
 * objects, not other templates.
 */
export const CARD_DATA_TEMPLATES: readonly string[] = ['70', '77'];

/**
 * The primitive data objects of a card read (hex BER-TLV), each by its tag, templates read in
 * place. Refused with a validation error naming the tag (never a value): data that is not hex or
 * not BER-TLV, a constructed object other than {@link CARD_DATA_TEMPLATES} or one inside a
 * template, and a tag that appears more than once (which of two values would the host get?).
 */
export function readCardObjects(emvData: string): Map<string, Buffer> {
  if (!/^(?:[0-9A-Fa-f]{2})+$/.test(emvData)) throw DomainError.validation('emvData: card EMV data is not hex');
  let roots: TlvNode[];
  try {
    roots = decodeTlvTree(Buffer.from(emvData, 'hex'), 'card EMV data');
  } catch (error) {
    if (error instanceof Iso8583Error) throw DomainError.validation(`emvData: card EMV data is not BER-TLV (${error.message})`);
    throw error;
  }
  const objects: TlvNode[] = [];
  for (const root of roots) {
    if (!root.children) {
      objects.push(root);
      continue;
    }
    if (!CARD_DATA_TEMPLATES.includes(root.tag)) {
      throw DomainError.validation(
        `emvData tag ${root.tag} is a constructed object: card data comes as data objects, or in the templates ${CARD_DATA_TEMPLATES.join(', ')}`,
      );
    }
    const nested = root.children.find((child) => child.children);
    if (nested) throw DomainError.validation(`emvData tag ${nested.tag} is a constructed object inside template ${root.tag}: templates hold data objects only`);
    objects.push(...root.children);
  }
  const byTag = new Map<string, Buffer>();
  for (const object of objects) {
    if (byTag.has(object.tag)) {
      const times = objects.filter((other) => other.tag === object.tag).length;
      throw DomainError.validation(`emvData ${tagLabel(object.tag)} appears ${times} times: each data object may appear once`);
    }
    byTag.set(object.tag, object.value);
  }
  return byTag;
}
