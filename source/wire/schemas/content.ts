import {z} from 'zod';
import {optionalString} from './common.js';

/** Nested content types shared by events, actions and observations (SDK openhands-sdk/openhands/sdk/llm/message.py). */

export const textContentSchema = z.looseObject({
	type: z.literal('text').optional(),
	text: z.string(),
	cache_prompt: z.boolean().optional(),
});

export const imageContentSchema = z.looseObject({
	type: z.literal('image'),
	image_urls: z.array(z.string()).nullish(),
});

/** Text, image, or a content type we do not know yet (kept, shown as its type). */
export const contentSchema = z.union([
	textContentSchema,
	imageContentSchema,
	z.looseObject({type: z.string()}),
]);
export type Content = z.infer<typeof contentSchema>;


export const thinkingBlockSchema = z.union([
	z.looseObject({type: z.literal('thinking'), thinking: z.string(), signature: optionalString}),
	z.looseObject({type: z.literal('redacted_thinking'), data: z.string()}),
	z.looseObject({type: z.string()}),
]);

/**
 * `encrypted_content` is deliberately absent: the parser scrubs it before validation and the
 * schema would strip it anyway. Only whether one was present is kept.
 */
export const reasoningItemSchema = z.object({
	id: optionalString,
	summary: z.array(z.string()).nullish(),
	content: z.array(z.string()).nullish(),
	status: optionalString,
});

export const messageToolCallSchema = z.looseObject({
	id: z.string(),
	name: z.string(),
	arguments: z.string(),
	origin: z.string().optional(),
	responses_item_id: optionalString,
});
export type MessageToolCall = z.infer<typeof messageToolCallSchema>;

export const criticResultSchema = z.looseObject({
	score: z.number(),
	message: optionalString,
	metadata: z.record(z.string(), z.unknown()).nullish(),
});

export const llmMessageSchema = z.looseObject({
	role: z.string(),
	content: z.array(contentSchema).nullish(),
	tool_calls: z.array(messageToolCallSchema).nullish(),
	tool_call_id: optionalString,
	name: optionalString,
	reasoning_content: optionalString,
	thinking_blocks: z.array(thinkingBlockSchema).nullish(),
	responses_reasoning_item: reasoningItemSchema.nullish(),
});
export type LlmMessage = z.infer<typeof llmMessageSchema>;

/**
 * Error classification carried by agent and conversation errors on newer servers (SDK
 * openhands-sdk/openhands/sdk/event/error_classification.py): `{kind, retryable, user_action,
 * error_id?}`. Each part is read on its own and a malformed one is dropped: a classification is
 * advice, and a bad one must never cost the error event that carries it (an unknown `kind` or
 * `user_action` is kept as sent; wire/error-classification.ts reads it as unknown).
 */
export const errorClassificationSchema = z
	.looseObject({
		kind: z.string().nullish().catch(undefined),
		retryable: z.boolean().nullish().catch(undefined),
		user_action: z.string().nullish().catch(undefined),
		error_id: optionalString.catch(undefined),
	})
	.nullish()
	.catch(null);
export type WireErrorClassification = z.infer<typeof errorClassificationSchema>;
