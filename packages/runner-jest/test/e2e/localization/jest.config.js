const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.paths.json');

module.exports = {
  testEnvironment: 'node',
  transform: {
    // compiled with no source map: Jest's lines for this file are the compiled code's
    '/tests/titles\\.test\\.ts$': '<rootDir>/nomap-transform.js',
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, isolatedModules: true }],
    '^.+\\.js$': 'babel-jest',
  },
  moduleNameMapper: {
    '^@geo/(.*)$': '<rootDir>/src/$1',
    // the paths of the tsconfig, computed: the analyzer reads them from the tsconfig files
    ...pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/src/' }),
  },
  moduleDirectories: ['node_modules', 'src'],
};
