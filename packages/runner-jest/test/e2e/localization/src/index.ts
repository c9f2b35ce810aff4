export * from './shapes';
export { scale as scaleBy } from './transform';
