/**
 * A whole-number setting from the environment: `fallback` when unset or blank, else digits
 * within [min, max]. The error (from `fail`, a plain Error by default) names the variable.
 */
export function integerFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
  fail: (message: string) => Error = (message) => new Error(message),
): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  if (!/^[0-9]+$/.test(text.trim())) throw fail(`${name} must be a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw fail(`${name} must be from ${min} to ${max}, got ${value}`);
  return value;
}
