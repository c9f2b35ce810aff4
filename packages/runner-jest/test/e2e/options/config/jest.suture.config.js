// Tests that only this config finds, with a cache of their own: with no timings, Jest gives each
// file to a worker unless told to run in band.
module.exports = {
  rootDir: '..',
  testMatch: ['<rootDir>/checks/**/*.check.js'],
  cacheDirectory: '<rootDir>/.cache',
};
