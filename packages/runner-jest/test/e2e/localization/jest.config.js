module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, isolatedModules: true }],
    '^.+\\.js$': 'babel-jest',
  },
  moduleNameMapper: { '^@geo/(.*)$': '<rootDir>/src/$1' },
  moduleDirectories: ['node_modules', 'src'],
};
