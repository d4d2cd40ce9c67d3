// Validates glTF/GLB files with the Khronos validator; prints one JSON summary per file and
// exits 1 if any file has errors.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function main() {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
      uri: path.basename(file),
      maxIssues: 50,
    });
    const issues = report.issues;
    const errors = issues.messages.filter((m) => m.severity === 0);
    console.log(JSON.stringify({
      file,
      errors: issues.numErrors,
      warnings: issues.numWarnings,
      infos: issues.numInfos,
      first_errors: errors.slice(0, 10),
    }));
    if (issues.numErrors > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
