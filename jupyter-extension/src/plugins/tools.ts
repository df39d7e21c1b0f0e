import { McpPanel } from '../mcpPanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin } from './common';

/** The 29 MCP tools: a form per input schema, the answer in the main area. */
export const toolsPlugin = sectionPlugin('tools', 'DC Hub MCP tools.', ({ app, commands, dchub, palette, base }) => {
  const tools = new McpPanel({
    ...base,
    onCall: () => void commands.execute(CommandIDs.callTool)
  });
  // The tool list loads the first time the tab is shown.
  Object.assign(tools, { onShown: () => !tools.loaded && void dchub.settingsLoaded.then(() => tools.loadTools()) });
  dchub.addSection(tools, 500);

  addPanelCommand(app, dchub, palette, CommandIDs.callTool, 'mcp', {
    label: 'Call a DC Hub MCP tool',
    caption: 'Call the tool chosen in the Tools tab (arguments: tool, and args to fill its form first)',
    args: {
      tool: { type: 'string' },
      args: { type: 'object', description: 'Form values by argument name' }
    },
    fill: async (args) => {
      const tool = args['tool'];
      if (typeof tool !== 'string') return;
      const values = (args['args'] ?? {}) as Record<string, unknown>;
      const form: Record<string, string | boolean> = {};
      for (const [k, v] of Object.entries(values)) {
        form[k] =
          typeof v === 'boolean'
            ? v
            : Array.isArray(v)
              ? v.some((x) => x && typeof x === 'object')
                ? JSON.stringify(v)
                : v.join(',')
              : String(v);
      }
      await tools.fill(tool, form);
    },
    run: () => tools.call()
  });
});
