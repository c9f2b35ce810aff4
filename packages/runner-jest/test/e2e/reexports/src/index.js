const more = require('./more-ops');

// the package's API: every operation, spread from the modules that define them
module.exports = { ...require('./ops'), ...more, version: '1.0.0' };
