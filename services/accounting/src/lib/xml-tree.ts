import { create } from 'xmlbuilder2';

/**
 * Reading a SOAP answer: the elements of a local name at any depth (namespace prefixes ignored)
 * and their text. The services we call (the Tax Administration, the National Bank of Serbia)
 * differ in prefixes and wrappers, never in the local names we read. Read through the DOM that
 * xmlbuilder2 parses into: its object format gives text with `<`, `>` and `&` escaped again.
 */
export interface XmlNode {
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<XmlNode>;
  textContent: string | null;
}

/** The parsed document (xmlbuilder2's DOM). */
export function parseXml(xml: string): XmlNode {
  return create(xml).node as unknown as XmlNode;
}

/** Every element named `name` (any namespace) under `node`, in document order. */
export function findElements(node: XmlNode, name: string): XmlNode[] {
  return Array.from(node.getElementsByTagNameNS('*', name));
}

/** An element's text (entities decoded), trimmed; null for an absent element. */
export const elementText = (n: XmlNode | undefined): string | null => (n ? (n.textContent ?? '').trim() : null);
