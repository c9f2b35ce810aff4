export { total as sum, default as average } from './stats';
