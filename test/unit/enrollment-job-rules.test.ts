// Why a selected contact is not enrolled: each fact alone gives its reason, and when several hold
// the first in NOT_ENROLLED_REASONS' order wins (a closed workflow before anything about the contact).
import { describe, expect, it } from 'vitest';
import {
  NOT_ENROLLED_REASONS,
  notEnrolledReason,
  type EnrollFacts,
} from '../../src/domain/enrollment/enrollment-jobs.rules.js';

const CLEAR: EnrollFacts = {
  workflowOpen: true,
  activeInWorkflow: false,
  calledByWorkflow: false,
  reEnroll: false,
  blocked: false,
  consentRequired: false,
};

describe('notEnrolledReason', () => {
  it('enrolls a contact nothing holds back', () => {
    expect(notEnrolledReason(CLEAR)).toBeNull();
  });

  it('names each fact alone', () => {
    expect(notEnrolledReason({ ...CLEAR, workflowOpen: false })).toBe('workflow_not_published');
    expect(notEnrolledReason({ ...CLEAR, activeInWorkflow: true })).toBe('already_enrolled');
    expect(notEnrolledReason({ ...CLEAR, calledByWorkflow: true })).toBe('already_called');
    expect(notEnrolledReason({ ...CLEAR, blocked: true })).toBe('blocked');
    expect(notEnrolledReason({ ...CLEAR, consentRequired: true })).toBe('no_consent');
  });

  it('reEnroll lets a called contact in, never one enrolled now', () => {
    expect(notEnrolledReason({ ...CLEAR, calledByWorkflow: true, reEnroll: true })).toBeNull();
    expect(notEnrolledReason({ ...CLEAR, activeInWorkflow: true, calledByWorkflow: true, reEnroll: true })).toBe(
      'already_enrolled',
    );
  });

  it('answers the first reason in the listed order when all hold', () => {
    const all = {
      workflowOpen: false,
      activeInWorkflow: true,
      calledByWorkflow: true,
      reEnroll: false,
      blocked: true,
      consentRequired: true,
    };
    expect(notEnrolledReason(all)).toBe('workflow_not_published');
    expect(notEnrolledReason({ ...all, workflowOpen: true })).toBe('already_enrolled');
    expect(notEnrolledReason({ ...all, workflowOpen: true, activeInWorkflow: false, calledByWorkflow: false })).toBe(
      'blocked',
    );
    // Every reason is one the API lists.
    expect(NOT_ENROLLED_REASONS).toContain(notEnrolledReason({ ...all, workflowOpen: true }));
  });
});
