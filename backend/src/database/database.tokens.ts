export const DATABASE = Symbol('DATABASE');
export const DATABASE_DIALECT = Symbol('DATABASE_DIALECT');
