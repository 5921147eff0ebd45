// saxon-js ships without type declarations; the tests use this call.
declare module 'saxon-js' {
  const SaxonJS: {
    transform(
      options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' },
      mode: 'sync',
    ): { principalResult: string };
  };
  export default SaxonJS;
}
