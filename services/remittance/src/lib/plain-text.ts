import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

const STRIP_ALL: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  // Text inside these is code or widget content, never the user's words.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
};

/**
 * Passes allowed before the text must have stopped changing. Ordinary text needs one or two (a
 * pasted `&amp;lt;` is two); each pass parses the whole text, so the bound also caps the work an
 * input nested thousands of levels deep could cost.
 */
export const PLAIN_TEXT_MAX_PASSES = 16;

/**
 * User text that may contain HTML, reduced to plain text: sanitize-html (an HTML parser, not a
 * regular expression) drops every tag and the content of script-like elements; its
 * entity-escaped output is then decoded, so the stored text is what a reader sees ("a < b & c",
 * not "a &lt; b &amp; c") and clients escape it when they render it, like any other text.
 * Repeated until a pass changes nothing (a fixed point: no tag is left, since the parser would
 * have removed it), so markup hidden behind entities or split tags ("<<b>script>") cannot come
 * back out of the decoding. Text that is still changing after PLAIN_TEXT_MAX_PASSES passes
 * (entities nested that deep) is refused: null. Spaces collapse; line breaks stay (at most one
 * empty line).
 */
export function toPlainText(input: string): string | null {
  let text = input;
  let settled = false;
  for (let pass = 0; pass < PLAIN_TEXT_MAX_PASSES && !settled; pass++) {
    const next = decodeHTML(sanitizeHtml(text, STRIP_ALL));
    settled = next === text;
    text = next;
  }
  if (!settled) return null;
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
