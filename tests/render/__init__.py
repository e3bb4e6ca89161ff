"""Tests of rendering events into posts and PMs."""
