// svc-conformance/generators: fast-check arbitraries of valid and labelled invalid requests (faker is loaded at the first value drawn).
export * from '../generators/index.js';
