export * from './format.js';
export * from './session.js';
