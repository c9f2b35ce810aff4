module.exports = { testEnvironment: 'node', extensionsToTreatAsEsm: ['.ts'], transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }] } };
