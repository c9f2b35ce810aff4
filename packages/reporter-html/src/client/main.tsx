import { render } from 'preact';
import type { BootData } from '../shared/live.js';
import { App } from './app.js';
import './styles.css';
import 'diff2html/bundles/css/diff2html.min.css';

const data = document.getElementById('suture-data')?.textContent;
const boot: BootData = data ? (JSON.parse(data) as BootData) : { mode: 'browse' };
const root = document.getElementById('app')!;
render(<App boot={boot} />, root);
// read by bench/html-report.mjs and the browser tests: the page's first render is done
performance.mark('suture:rendered');
document.documentElement.dataset.rendered = 'true';
