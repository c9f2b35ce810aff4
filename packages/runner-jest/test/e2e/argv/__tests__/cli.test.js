const { options } = require('../src/cli');

test('reads the command line it was started with', () => {
  expect(options()).toEqual(JSON.parse(process.env.EXPECTED_OPTIONS || '{}'));
});
