// awesome-lint on one Markdown list, the rules about a repository rather than its list
// set aside: awesome-badge (the "Awesome" badge says the list is on sindresorhus/awesome,
// which an exported list is not), awesome-contributing and awesome-license (files the
// repository holds beside the README), awesome-github (the list's folder is a GitHub
// repository with a description). Prints each message; exits 1 on any error (the
// spell-check rule only warns, as awesome-lint itself has it).
// Usage: node awesome_lint.mjs NODE_MODULES/awesome-lint LIST.md
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [root, file] = process.argv.slice(2);
const load = name => import(pathToFileURL(path.join(root, name)).href);
const {createConfig} = await load('config.js');
const {createRules} = await load('rules/index.js');
const {default: lint} = await load('index.js');

const aside = new Set(['awesome-badge', 'awesome-contributing', 'awesome-license', 'awesome-github']);
const warnOnly = new Set(['awesome-spell-check']);
const ruleId = rule => rule?.name?.replace(/^remark-lint:/, '');
const rules = createRules().filter(([rule]) => !aside.has(ruleId(rule)));
const vfiles = await lint({filename: file, config: createConfig(rules)});
let errors = 0;
for (const vfile of vfiles) {
	for (const message of vfile.messages) {
		const warning = warnOnly.has(message.ruleId);
		errors += warning ? 0 : 1;
		console.log(`${message.line}:${message.column} ${warning ? 'warning' : 'error'} ${message.ruleId}: ${message.reason}`);
	}
}
process.exit(errors ? 1 : 0);
