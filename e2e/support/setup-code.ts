/** The first-admin setup code the e2e server is started with (SETUP_CODE), as an operator would preset it. */
export const E2E_SETUP_CODE = 'e2e-setup-code';
