// A plugin whose factory ends the process while the config loads, as one that finds no key might.
export default function exitFactory() {
  process.exit(0);
}
