/*
 * Imported first by every process (main/*.ts), before any library loads. grammY's npm build
 * pulls node-fetch 2, whose URL parser requires Node's deprecated `punycode` module, and
 * every start printed "[DEP0040] DeprecationWarning: The `punycode` module is deprecated",
 * which a newcomer reads as a fault. Nothing of ours uses it, and the module still works:
 * that one warning is dropped, every other warning is printed as before.
 */
import process from "node:process";

const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const options = rest[0];
  const code = typeof options === "object" && options !== null ? (options as { code?: string }).code : rest[1];
  if (code === "DEP0040") return;
  return (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
