import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { partPresent } from '@app/shared/test/parts';
import { XMLParser } from 'fast-xml-parser';
import SaxonJS from 'saxon-js';
import { validateXML } from 'xmllint-wasm';

/**
 * The official e-invoice rules beside the repository (../shared/einvoice, see its README), used
 * as test oracles and never copied into the project. A clone on its own has no such folder: the
 * suites that need it skip and say why.
 */
export const EINVOICE_DIR = fileURLToPath(new URL('../../../../shared/einvoice/', import.meta.url));
/** Whether the rules are there: a bare clone skips their suites, CI fails without them (parts.ts). */
export const HAVE_RULES = partPresent(
  'the official e-invoice rules (../shared/einvoice)',
  existsSync(`${EINVOICE_DIR}rules/rs-srbdt.sef.json`) && existsSync(`${EINVOICE_DIR}xsd/maindoc`)
    ? null
    : `not at ${EINVOICE_DIR}: a clone on its own; CI provides ../shared/einvoice`,
  'e-invoice rule tests',
);

export type RuleSet = 'rs-srbdt' | 'en16931-ubl' | 'hr-cius-2025';
export const RULES_BY_COUNTRY: Record<string, RuleSet[]> = {
  RS: ['rs-srbdt'],
  HR: ['en16931-ubl', 'hr-cius-2025'],
  BA: ['en16931-ubl'],
};

const loaded = new Map<RuleSet, unknown>();
/** Each compiled rule file is read once per test file (the first load is most of the cost). */
export async function loadRules(names: RuleSet[]) {
  for (const n of names)
    if (!loaded.has(n)) loaded.set(n, JSON.parse(await readFile(`${EINVOICE_DIR}rules/${n}.sef.json`, 'utf8')));
}

const svrl = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  isArray: (name) => name === 'failed-assert',
});

export interface Failure {
  rules: RuleSet;
  id: string;
  flag: string;
  text: string;
}

/** The failed assertions of the SVRL reports of every rule set of the country. */
export function failures(country: string, xml: string): Failure[] {
  const out: Failure[] = [];
  for (const rules of RULES_BY_COUNTRY[country]) {
    const pkg = loaded.get(rules);
    if (!pkg) throw new Error(`rules ${rules} not loaded`);
    const { principalResult } = SaxonJS.transform(
      { stylesheetInternal: pkg, sourceText: xml, destination: 'serialized' },
      'sync',
    );
    const report = svrl.parse(principalResult)['schematron-output'] ?? {};
    for (const f of report['failed-assert'] ?? []) {
      const text = typeof f.text === 'string' ? f.text : String(f.text?.['#text'] ?? '');
      out.push({ rules, id: f['@_id'], flag: f['@_flag'], text: text.replace(/\s+/g, ' ').trim() });
    }
  }
  return out;
}

/** Only the errors: a warning (UBL-CR-* for the HR extension, for example) is not a failure. */
export const fatal = (country: string, xml: string) => failures(country, xml).filter((f) => f.flag === 'fatal');

let preload: Array<{ fileName: string; contents: string }> | null = null;
/** UBL 2.1 XSD validation (with the Croatian extension components), as xmllint reports it. */
export async function xsdErrors(xml: string): Promise<string[]> {
  preload ??= readdirSync(`${EINVOICE_DIR}xsd/common`).map((f) => ({
    fileName: `common/${f}`,
    contents: readFileSync(`${EINVOICE_DIR}xsd/common/${f}`, 'utf8'),
  }));
  const main = xml.includes('<CreditNote') ? 'UBL-CreditNote-2.1.xsd' : 'UBL-Invoice-2.1.xsd';
  const r = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [{ fileName: `maindoc/${main}`, contents: readFileSync(`${EINVOICE_DIR}xsd/maindoc/${main}`, 'utf8') }],
    preload,
  });
  return r.errors.map((e) => e.rawMessage);
}
