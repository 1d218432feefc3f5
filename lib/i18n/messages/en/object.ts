export const object = {} as const;
