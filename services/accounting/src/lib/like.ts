/** What a user typed as a LIKE/ILIKE pattern that matches it anywhere (\, % and _ taken literally). */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
