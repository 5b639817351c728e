/** The agent home is the agent area's dashboard (features/agents, docs/agents.md). */
export { default } from '../agents/AgentDashboardPage';
