import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

const STRIP_ALL: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  // Text inside these is code or widget content, never the user's words.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
};

/**
 * User text that may contain HTML, reduced to plain text: sanitize-html (an HTML parser, not a
 * regular expression) drops every tag and the content of script-like elements; its
 * entity-escaped output is then decoded, so the stored text is what a reader sees ("a < b & c",
 * not "a &lt; b &amp; c") and clients escape it when they render it, like any other text.
 * Repeated until nothing changes, so markup hidden behind entities or split tags ("<<b>script>")
 * cannot come back out of the decoding. Spaces collapse; line breaks stay (at most one empty line).
 */
export function toPlainText(input: string): string {
  let text = input;
  for (let pass = 0; pass < 10; pass++) {
    const next = decodeHTML(sanitizeHtml(text, STRIP_ALL));
    if (next === text) break;
    text = next;
  }
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
