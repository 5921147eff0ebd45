import { addDetail, type ErrorDetails } from '../lib/errors.js';
import { KPD_2025_CODES, VATEX_CODES } from './code-lists.generated.js';

/**
 * Issue 25 item 4: an invoice line's codes are checked at input time against the code lists the
 * official rules apply to the e-invoice (extracted by scripts/code-lists.ts into the committed
 * code-lists.generated.ts), so a code the tax authority would refuse is named when it is typed,
 * not when the e-invoice is built.
 */
let kpd: ReadonlySet<string> | null = null;
let vatex: ReadonlySet<string> | null = null;
const setOf = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

/** HR-BR-CL-2: a KPD 2025 code as the Croatian rules list it ("62.10.11"). */
export function isKpd2025Code(code: string): boolean {
  kpd ??= setOf(KPD_2025_CODES);
  return kpd.has(code);
}

/** BR-CL-22: a CEF VATEX code; the rule compares upper-cased, so case does not matter. */
export function isVatexCode(code: string): boolean {
  vatex ??= setOf(VATEX_CODES);
  return vatex.has(code.toUpperCase());
}

/**
 * The SEF exemption codes are not among the official artefacts (rs-srbdt checks the VAT category
 * only), so a Serbian code is checked for the shape the e-invoice's category depends on (E3).
 */
const SERBIAN_EXEMPTION = /^PDV-RS-\d+/;

/** The problems of the lines' classification and exemption codes for an organization of `country`. */
export function lineCodeProblems(
  country: string,
  items: ReadonlyArray<{ classificationCode: string | null; vatExemptionCode: string | null }>,
): ErrorDetails {
  const details: ErrorDetails = {};
  items.forEach((item, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    if (country === 'HR' && item.classificationCode && !isKpd2025Code(item.classificationCode)) {
      addDetail(details, at('classificationCode'), 'must be a code of the KPD 2025 list (HR-BR-CL-2), e.g. 62.10.11');
    }
    const code = item.vatExemptionCode;
    if (!code) return;
    if (country === 'RS') {
      if (!SERBIAN_EXEMPTION.test(code))
        addDetail(details, at('vatExemptionCode'), 'must be a Serbian exemption code of SEF (PDV-RS-...)');
    } else if (!isVatexCode(code)) {
      addDetail(details, at('vatExemptionCode'), 'must be a code of the CEF VATEX list (BR-CL-22), e.g. VATEX-EU-132');
    }
  });
  return details;
}
