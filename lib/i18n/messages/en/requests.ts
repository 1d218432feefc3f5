export const requests = {} as const;
