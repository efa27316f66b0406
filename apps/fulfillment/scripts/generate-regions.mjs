// Regenerates src/domain/regions/countries.ts and states-*.ts from the ISO 3166
// tables of Debian's iso-codes package (apt-get install iso-codes):
//   node apps/fulfillment/scripts/generate-regions.mjs [/usr/share/iso-codes/json]
// Which subdivision level a country's addresses use, its label and whether it
// is required are decided here (COUNTRY_STATES); names are cleaned of ISO's
// alternative spellings, and a few are given their usual English form.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = process.argv[2] ?? '/usr/share/iso-codes/json';
const out = join(dirname(fileURLToPath(import.meta.url)), '../src/domain/regions');
const countries = JSON.parse(readFileSync(join(source, 'iso_3166-1.json'), 'utf8'))['3166-1'];
const subdivisions = JSON.parse(readFileSync(join(source, 'iso_3166-2.json'), 'utf8'))['3166-2'];
const version = packageVersion();

const COUNTRY_NAMES = {
  BN: 'Brunei',
  CD: 'Congo (Kinshasa)',
  CG: 'Congo (Brazzaville)',
  FK: 'Falkland Islands',
  FM: 'Micronesia',
  MF: 'Saint Martin (French part)',
  PS: 'Palestine',
  RU: 'Russia',
  SH: 'Saint Helena',
  VA: 'Vatican',
  VG: 'British Virgin Islands',
  VI: 'U.S. Virgin Islands',
};

// type filters: which ISO 3166-2 entries are the "state" of an address.
const all = () => true;
const topLevel = (s) => !s.parent;
const children = (s) => Boolean(s.parent);
const ofTypes = (...types) => (s) => types.includes(s.type);

/** [country, file, label, required, select, {rename, extra, exclude, byCode}] */
const COUNTRY_STATES = [
  ['US', 'americas', 'State', true, all, {
    // USPS military "states": not ISO 3166-2, but valid US shipping addresses.
    extra: [['AA', 'Armed Forces (AA)'], ['AE', 'Armed Forces (AE)'], ['AP', 'Armed Forces (AP)']],
  }],
  ['CA', 'americas', 'Province', true, all],
  ['MX', 'americas', 'State', true, all, { rename: { COA: 'Coahuila', MIC: 'Michoacán', VER: 'Veracruz' } }],
  ['BR', 'americas', 'State', true, all],
  ['AR', 'americas', 'Province', true, all],
  ['CL', 'americas', 'Region', true, all, {
    rename: { AI: 'Aysén', LI: "O'Higgins", RM: 'Región Metropolitana de Santiago' },
  }],
  ['CO', 'americas', 'Department', true, all, { rename: { DC: 'Bogotá D.C.' } }],
  ['PE', 'americas', 'Region', true, all, {
    rename: { AMA: 'Amazonas', APU: 'Apurímac', JUN: 'Junín', LMA: 'Municipalidad Metropolitana de Lima', SAM: 'San Martín' },
  }],
  ['VE', 'americas', 'State', true, all],
  ['EC', 'americas', 'Province', true, all],
  ['BO', 'americas', 'Department', true, all],
  ['PY', 'americas', 'Department', true, all],
  ['UY', 'americas', 'Department', true, all],
  ['GT', 'americas', 'Department', true, all],
  ['HN', 'americas', 'Department', true, all],
  ['SV', 'americas', 'Department', true, all],
  ['NI', 'americas', 'Department', true, all],
  ['CR', 'americas', 'Province', true, all],
  ['PA', 'americas', 'Province', true, all],
  ['DO', 'americas', 'Province', true, children],
  ['JM', 'americas', 'Parish', true, all],
  ['CU', 'americas', 'Province', true, all],
  ['IT', 'europe', 'Province', true, children, {
    // Valle d'Aosta has no provinces; its addresses use the code AO.
    extra: [['AO', 'Aosta']],
  }],
  ['ES', 'europe', 'Province', true, ofTypes('Province', 'Autonomous city in north africa'), {
    rename: { A: 'Alicante', CS: 'Castellón', NA: 'Navarra', VI: 'Álava', PM: 'Baleares' },
  }],
  ['IE', 'europe', 'County', true, ofTypes('County')],
  ['CH', 'europe', 'Canton', false, all],
  ['RO', 'europe', 'County', true, all],
  ['BG', 'europe', 'Province', true, all, { rename: { 22: 'Sofia City', 23: 'Sofia Province' } }],
  ['GR', 'europe', 'Region', false, all],
  ['HU', 'europe', 'County', false, ofTypes('County', 'Capital city')],
  ['UA', 'europe', 'Region', false, all],
  ['AL', 'europe', 'County', true, all],
  ['JP', 'asia', 'Prefecture', true, all, { byCode: true }],
  ['CN', 'asia', 'Province', true, all, {
    // Hong Kong, Macao and Taiwan are countries of their own in addresses.
    exclude: ['HK', 'MO', 'TW'],
    rename: { GX: 'Guangxi', NM: 'Inner Mongolia', NX: 'Ningxia', XJ: 'Xinjiang', XZ: 'Tibet' },
    strip: / (Sheng|Shi|Zizhiqu)$/,
  }],
  ['IN', 'asia', 'State', true, all],
  ['ID', 'asia', 'Province', true, children, { rename: { JK: 'DKI Jakarta', YO: 'DI Yogyakarta' } }],
  ['MY', 'asia', 'State', true, all, {
    rename: { 14: 'Kuala Lumpur', 15: 'Labuan', 16: 'Putrajaya' },
  }],
  ['TH', 'asia', 'Province', true, ofTypes('Province', 'Metropolitan administration'), { rename: { 10: 'Bangkok' } }],
  ['PH', 'asia', 'Province', true, (s) => s.type === 'Province' || s.code === 'PH-00', { rename: { '00': 'Metro Manila' } }],
  ['TR', 'asia', 'Province', true, all, { byCode: true }],
  ['BD', 'asia', 'District', true, children],
  ['PK', 'asia', 'Province', true, all],
  ['ZA', 'africa', 'Province', true, all, { rename: { KZN: 'KwaZulu-Natal' } }],
  ['NG', 'africa', 'State', true, all, { rename: { FC: 'Abuja' } }],
  ['KE', 'africa', 'County', true, all],
  ['GH', 'africa', 'Region', false, all],
  ['TZ', 'africa', 'Region', false, all],
  ['DZ', 'africa', 'Province', true, all, { byCode: true }],
  ['ZM', 'africa', 'Province', true, all],
  ['MZ', 'africa', 'Province', true, all, { rename: { MPM: 'Maputo (city)', L: 'Maputo (province)' } }],
  ['AO', 'africa', 'Province', true, all],
  ['NA', 'africa', 'Region', false, all],
  ['LR', 'africa', 'County', true, all],
  ['BJ', 'africa', 'Department', true, all],
  ['AU', 'oceania', 'State', true, all],
  ['NZ', 'oceania', 'Region', false, all],
];

const FILES = {
  americas: 'AMERICAS_STATES',
  europe: 'EUROPE_STATES',
  asia: 'ASIA_STATES',
  africa: 'AFRICA_STATES',
  oceania: 'OCEANIA_STATES',
};

/** "Barcelona [Barcelona]" -> "Barcelona"; "Alacant*" -> "Alacant". */
const clean = (name) => name.replace(/\s*\[[^\]]*\]/g, '').replace(/\*$/, '').trim();
const quote = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function statesOf([country, , , , select, options = {}]) {
  const rename = options.rename ?? {};
  const picked = subdivisions
    .filter((s) => s.code.startsWith(`${country}-`) && select(s))
    .map((s) => {
      const code = s.code.slice(country.length + 1);
      const name = rename[code] ?? clean(s.name).replace(options.strip ?? /^\b$/, '');
      return [code, name];
    })
    .filter(([code]) => !(options.exclude ?? []).includes(code))
    .concat(options.extra ?? []);
  return options.byCode
    ? picked.sort((a, b) => a[0].localeCompare(b[0]))
    : picked.sort((a, b) => a[1].localeCompare(b[1], 'en'));
}

const header = (what) =>
  `// Generated by apps/fulfillment/scripts/generate-regions.mjs from ISO 3166 (Debian iso-codes ${version});\n` +
  `// edit the script, not this file. ${what}\n`;

function writeCountries() {
  const lines = countries
    .map((c) => [c.alpha_2, COUNTRY_NAMES[c.alpha_2] ?? c.common_name ?? c.name])
    .sort((a, b) => a[1].localeCompare(b[1], 'en'))
    .map(([code, name]) => `  [${quote(code)}, ${quote(name)}],`);
  writeFileSync(
    join(out, 'countries.ts'),
    header('Every ISO 3166-1 country: [alpha-2, English short name], by name.') +
      `export const COUNTRY_NAMES: ReadonlyArray<readonly [string, string]> = [\n${lines.join('\n')}\n];\n`,
  );
}

function writeStates() {
  for (const [file, constant] of Object.entries(FILES)) {
    const entries = COUNTRY_STATES.filter((c) => c[1] === file).map((entry) => {
      const [country, , label, required] = entry;
      const states = statesOf(entry).map(([code, name]) => `      [${quote(code)}, ${quote(name)}],`);
      return `  ${country}: {\n    label: ${quote(label)},\n    required: ${required},\n    states: [\n${states.join('\n')}\n    ],\n  },`;
    });
    writeFileSync(
      join(out, `states-${file}.ts`),
      header('States of the countries whose addresses use a state list: [code, name].') +
        `import type { CountryStates } from './types';\n\n` +
        `export const ${constant}: Readonly<Record<string, CountryStates>> = {\n${entries.join('\n')}\n};\n`,
    );
  }
}

function packageVersion() {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', 'iso-codes'], { encoding: 'utf8' });
  } catch {
    return 'unknown version';
  }
}

writeCountries();
writeStates();
