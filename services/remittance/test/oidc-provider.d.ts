// oidc-provider ships no type declarations (and @types/oidc-provider is not installed); the
// test that starts a real provider uses it untyped.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
