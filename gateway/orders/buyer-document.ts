/** The check digit of a CPF or CNPJ prefix, weights counted down from `start` (CNPJ's restart at 9 after 2). */
function checkDigit(digits: string, weights: number[]): number {
  const sum = [...digits].reduce((total, d, i) => total + Number(d) * weights[i], 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  return (
    checkDigit(digits.slice(0, 9), CPF_1) === Number(digits[9]) &&
    checkDigit(digits.slice(0, 10), CPF_2) === Number(digits[10])
  );
}

export function isValidCnpj(digits: string): boolean {
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  return (
    checkDigit(digits.slice(0, 12), CNPJ_1) === Number(digits[12]) &&
    checkDigit(digits.slice(0, 13), CNPJ_2) === Number(digits[13])
  );
}

/** The buyer's CPF (11 digits) or CNPJ (14) as digits only when its check digits hold, else undefined. */
export function buyerDocument(identification: string | null | undefined): string | undefined {
  const digits = String(identification ?? '').replace(/\D/g, '');
  return isValidCpf(digits) || isValidCnpj(digits) ? digits : undefined;
}
