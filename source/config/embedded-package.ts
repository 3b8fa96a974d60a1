/**
 * package.json's facts built into the single executable (scripts/package.mjs defines
 * AGENT_TUI_EMBEDDED_PACKAGE), which has no package.json beside it; undefined in the npm package
 * and in the sources, where meow reads package.json as installed. Without it, meow would read the
 * first package.json above wherever the executable was copied to.
 */
declare const AGENT_TUI_EMBEDDED_PACKAGE: {name: string; version: string; description: string} | undefined;

export const embeddedPackage = typeof AGENT_TUI_EMBEDDED_PACKAGE === 'undefined' ? undefined : AGENT_TUI_EMBEDDED_PACKAGE;
