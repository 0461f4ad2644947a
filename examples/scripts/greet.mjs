// The example's "product": prints a greeting, or its version. Exits non-zero on bad input,
// so that a gate checking it can fail.
const args = process.argv.slice(2);
if (args[0] === '--version') {
  console.log('greet 1.2.0');
} else if (args[0] === '--name' && args[1]) {
  console.log(`Hello, ${args[1]}!`);
} else {
  console.error('usage: greet.mjs --name NAME | --version');
  process.exit(2);
}
