const { parseArgs } = require('node:util');

// A command line tool's entry: it reads its own process.argv, strictly, as most CLIs do.
function options(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { verbose: { type: 'boolean' } },
  });
  return { ...values };
}

module.exports = { options };
