/** Norwegian organisation number (R12): 9 digits, the last a mod-11 check digit (weights 3 2 7 6 5 4 3 2). */
export function isValidOrgNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === Number(value[8]);
}

/** Norwegian bank account number: 11 digits, the last a mod-11 check digit (weights 5 4 3 2 7 6 5 4 3 2). */
export function isValidNorwegianAccount(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === Number(value[10]);
}
