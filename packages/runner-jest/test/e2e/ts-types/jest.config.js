// ts-jest type-checks each file it compiles (its diagnostics are on by default)
module.exports = { testEnvironment: 'node', transform: { '^.+\\.ts$': 'ts-jest' } };
