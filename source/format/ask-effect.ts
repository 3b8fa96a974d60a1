/**
 * What asking an agent a side question (`ask_agent`) does to it, in words true for its status:
 * the agent server answers from the conversation without running it ("execution status is
 * untouched", SDK agent_server conversation_router.py `ask_agent`), so a running agent keeps
 * working and any other stays as it is. An unknown status is not guessed.
 */
export function askEffect(executionStatus: string | null | undefined): string {
	if (executionStatus === 'running') return 'its agent keeps working and nothing is added to its history';
	if (!executionStatus) return 'its status is left as it is and nothing is added to its history';
	return `its agent stays ${executionStatus.replaceAll('_', ' ')} and nothing is added to its history`;
}
