module.exports = require('./index');
