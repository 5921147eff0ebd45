/** The app's languages: Norwegian and English first, then the languages of the corridors. */
export type Locale = 'nb' | 'en' | 'pl' | 'tr' | 'bs' | 'ur';
