import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';

/** The official municipality list shipped with the product (data/README.md says where it comes from). */
const LIST = path.join(projectRoot, 'data', 'ibge-municipios.json');

/** A state's name as written in capitals without accents or spaces → its UF. */
const STATES: Record<string, string> = {
  ACRE: 'AC',
  ALAGOAS: 'AL',
  AMAPA: 'AP',
  AMAZONAS: 'AM',
  BAHIA: 'BA',
  CEARA: 'CE',
  DISTRITOFEDERAL: 'DF',
  ESPIRITOSANTO: 'ES',
  GOIAS: 'GO',
  MARANHAO: 'MA',
  MATOGROSSO: 'MT',
  MATOGROSSODOSUL: 'MS',
  MINASGERAIS: 'MG',
  PARA: 'PA',
  PARAIBA: 'PB',
  PARANA: 'PR',
  PERNAMBUCO: 'PE',
  PIAUI: 'PI',
  RIODEJANEIRO: 'RJ',
  RIOGRANDEDONORTE: 'RN',
  RIOGRANDEDOSUL: 'RS',
  RONDONIA: 'RO',
  RORAIMA: 'RR',
  SANTACATARINA: 'SC',
  SAOPAULO: 'SP',
  SERGIPE: 'SE',
  TOCANTINS: 'TO',
};

/** `São João d'Oeste` → `SAOJOAODOESTE`: accents, case, spaces and punctuation ignored. */
export const normalised = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');

let municipalities: Record<string, Record<string, string>> | undefined;

/** UF → normalised name → 7-digit code, read once. */
export function municipalityList(): Record<string, Record<string, string>> {
  return (municipalities ??= JSON.parse(readFileSync(LIST, 'utf8')) as Record<string, Record<string, string>>);
}

/** The UF of a province written as its name (`São Paulo`) or its UF (`sp`), or undefined. */
export function ufOf(province: string): string | undefined {
  const key = normalised(province);
  if (key.length === 2 && Object.values(STATES).includes(key)) return key;
  return STATES[key];
}

/** A municipality's 7-digit IBGE code from its city and province, or undefined when the list has no such one. */
export function ibgeCode(city: string | null | undefined, province: string | null | undefined): number | undefined {
  if (!city || !province) return undefined;
  const uf = ufOf(province);
  const code = uf ? municipalityList()[uf]?.[normalised(city)] : undefined;
  return code ? Number(code) : undefined;
}
