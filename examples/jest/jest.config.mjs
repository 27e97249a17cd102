// Jest runs these examples as native ES modules: no transform, node's own loader.
export default {
  rootDir: import.meta.dirname,
  testMatch: ['<rootDir>/jest.test.mjs'],
  testEnvironment: 'node',
  transform: {},
};
