const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface FieldErrors {
  email?: string;
  password?: string;
}

/** Whether `email` (trimmed) looks like an email address. */
export function isEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

export function validateEmail(email: string): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return 'Enter your email address';
  if (!EMAIL_PATTERN.test(trimmed)) return 'Enter a valid email address, like name@company.com';
  return undefined;
}

/** Client-side checks before anything is sent to the identity service. */
export function validateCredentials(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const emailError = validateEmail(email);
  if (emailError) errors.email = emailError;
  if (!password) errors.password = 'Enter your password';
  return errors;
}
