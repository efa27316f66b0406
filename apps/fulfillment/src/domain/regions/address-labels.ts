/**
 * The state field of countries whose addresses use no state list: how forms
 * label it. Every other such country gets DEFAULT_STATE_FIELD; none of them
 * requires it (a free-text state cannot be checked).
 */
export const DEFAULT_STATE_FIELD = { label: 'State / County', required: false } as const;

export const FREE_TEXT_STATE_LABELS: Readonly<Record<string, string>> = {
  GB: 'County',
  HK: 'Region',
  KR: 'Province',
  NP: 'Province',
  EG: 'Governorate',
  IR: 'Province',
  SA: 'Region',
  AE: 'Emirate',
  VN: 'Province',
  FR: 'Region',
  DE: 'State',
  AT: 'State',
  PT: 'District',
  PL: 'Province',
  NL: 'Province',
  BE: 'Province',
};
