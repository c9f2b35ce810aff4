// repeats a text n times; the bug steps by 2, so an odd n is never reached and the parts grow until memory runs out
function repeat(text, n) {
  const parts = [];
  for (let i = 0; i !== n; i += 2) parts.push(`${text}${i}`);
  return parts.join('');
}

module.exports = { repeat };
