export const objects = {} as const;
