export const admin = {} as const;
